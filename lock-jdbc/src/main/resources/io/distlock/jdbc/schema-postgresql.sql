-- distlock lock table for PostgreSQL. Replace ${table} with the table name (default distlock_locks).
-- One row per lock name. The row is kept after release so that fence (the fencing token) never goes backwards.
-- Times are only ever compared with the database's clock_timestamp().
CREATE TABLE IF NOT EXISTS ${table} (
  name        VARCHAR(255) NOT NULL PRIMARY KEY,
  owner_token VARCHAR(64) NULL,
  fence       BIGINT NOT NULL,
  expires_at  TIMESTAMP WITH TIME ZONE NULL,
  owner       VARCHAR(255) NULL,
  acquired_at TIMESTAMP WITH TIME ZONE NULL
)
