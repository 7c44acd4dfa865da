-- SHA-256 of engine programs, remembered by path, size and modification time, so a run does
-- not read a large binary again to learn the hash it had last time. A rebuilt binary has a
-- new size or mtime and is hashed afresh.
CREATE TABLE binary_hashes (
  path      TEXT    PRIMARY KEY,
  size      INTEGER NOT NULL,
  mtime_ns  INTEGER NOT NULL,
  sha256    TEXT    NOT NULL
);
