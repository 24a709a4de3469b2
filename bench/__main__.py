"""Run every benchmark module in turn: python -m bench [name ...]."""
import importlib
import sys

MODULES = ["bench_tools", "bench_semantic", "bench_orchestrator", "bench_rules", "bench_model", "bench_web", "bench_store", "bench_raw_model"]


def main(argv=None) -> int:
    wanted = (argv if argv is not None else sys.argv[1:]) or MODULES
    for name in wanted:
        print(f"\n=== bench.{name} ===", flush=True)
        try:
            module = importlib.import_module(f"bench.{name}")
        except ModuleNotFoundError as exc:
            print(f"(skipped: {exc})")
            continue
        module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
