-- distlock fence table for PostgreSQL (io.distlock.jdbc.SqlFence). Replace ${table} with the table name
-- (default distlock_fences). One row per protected resource: the highest fencing token that has written to it.
-- Rows are never deleted: a deleted row would let a stale holder write again.
CREATE TABLE IF NOT EXISTS ${table} (
  resource VARCHAR(255) NOT NULL PRIMARY KEY,
  fence    BIGINT NOT NULL
)
