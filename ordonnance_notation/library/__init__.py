"""The library's public face: reading records from any file or archive,
stepping through them, asking the engine, playing bots and writing records
and archives, each a call. The package's top level exports these names;
the CLI is the same calls with arguments and a reporter."""
