-- distlock semaphore table for PostgreSQL. Replace ${table} with the table name (the lock table's name followed by
-- _permits, default distlock_locks_permits). Apart from the lock table: a semaphore and a lock of one name never
-- meet. Per semaphore name, slot 0 keeps the fencing counter (swept only once the clock passed it) and slots 1..n are
-- permits, each held by owner_token until expires_at, with the limit its holder stated in permits.
-- Times are only ever compared with the database's clock_timestamp().
CREATE TABLE IF NOT EXISTS ${table} (
  name        VARCHAR(255) NOT NULL,
  slot        INT NOT NULL,
  owner_token VARCHAR(64) NULL,
  fence       BIGINT NOT NULL,
  expires_at  TIMESTAMP WITH TIME ZONE NULL,
  owner       VARCHAR(255) NULL,
  permits     INT NOT NULL,
  PRIMARY KEY (name, slot)
)
