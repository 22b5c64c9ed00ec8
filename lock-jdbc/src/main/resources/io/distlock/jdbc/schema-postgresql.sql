-- distlock lock table for PostgreSQL. Replace ${table} with the table name (default distlock_locks).
-- One row per lock name in use. A free row stays until the clock passed its fence, so fence never goes back.
-- Times are only ever compared with the database's clock_timestamp().
CREATE TABLE IF NOT EXISTS ${table} (
  name        VARCHAR(255) NOT NULL PRIMARY KEY,
  owner_token VARCHAR(64) NULL,
  fence       BIGINT NOT NULL,
  expires_at  TIMESTAMP WITH TIME ZONE NULL,
  owner       VARCHAR(255) NULL,
  acquired_at TIMESTAMP WITH TIME ZONE NULL
)
