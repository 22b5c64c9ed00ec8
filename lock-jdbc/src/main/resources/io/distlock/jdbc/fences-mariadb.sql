-- distlock fence table for MariaDB 10.3+ (io.distlock.jdbc.SqlFence). Replace ${table} with the table name
-- (default distlock_fences). One row per protected resource: the highest fencing token that has written to it.
-- Rows are never deleted: a deleted row would let a stale holder write again.
-- resource uses a binary, no-pad collation: names are compared exactly (case and trailing spaces count).
CREATE TABLE IF NOT EXISTS ${table} (
  resource VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  fence    BIGINT NOT NULL,
  PRIMARY KEY (resource)
) ENGINE = InnoDB
