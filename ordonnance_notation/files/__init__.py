"""Files: reading inputs (whole or a block at a time) and writing outputs atomically."""
