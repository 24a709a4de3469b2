"""ChiQA's semantic layer: measures, dimensions and joins declared once, and one typed query over them.

semantic.executor.run_query(data, query) checks a query (a dict) and runs it on pandas, returning a
semantic.result.QueryResult; a bad query raises semantic.errors.QueryError with a named code.
"""
