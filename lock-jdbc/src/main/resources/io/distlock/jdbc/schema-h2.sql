-- distlock lock table for H2 2.x. Replace ${table} with the table name (default distlock_locks).
-- One row per lock name in use. A free row stays until the clock passed its fence, so fence never goes back.
-- Times are only ever compared with the database's CURRENT_TIMESTAMP.
CREATE TABLE IF NOT EXISTS ${table} (
  name        VARCHAR(255) NOT NULL PRIMARY KEY,
  owner_token VARCHAR(64) NULL,
  fence       BIGINT NOT NULL,
  expires_at  TIMESTAMP(6) WITH TIME ZONE NULL,
  owner       VARCHAR(255) NULL,
  acquired_at TIMESTAMP(6) WITH TIME ZONE NULL
)
