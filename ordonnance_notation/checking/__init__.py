"""Checking records: what a record's words mean (content), replaying it under
the rules and comparing what it declares (validator), and doing so at archive
scale through the compiled core (quick)."""
