"""Archives: records as YAML or JSON documents, and conversion between them and .ord text."""
