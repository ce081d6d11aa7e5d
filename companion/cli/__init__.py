"""The `tactical` command line: one module per subcommand."""
