-- distlock semaphore table for MySQL 8.0.17+. Replace ${table} with the table name (the lock table's name
-- followed by _permits, default distlock_locks_permits). Apart from the lock table: a semaphore and a lock of one
-- name never meet. Per semaphore name, slot 0 keeps the fencing counter (swept only once the clock passed it)
-- and slots 1..n are permits, each held by owner_token until expires_at, with the limit its holder stated in permits.
-- Times are DATETIME(3) in UTC and are only ever compared with the database's NOW(3).
CREATE TABLE IF NOT EXISTS ${table} (
  name        VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin NOT NULL,
  slot        INT NOT NULL,
  owner_token VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL,
  fence       BIGINT NOT NULL,
  expires_at  DATETIME(3) NULL,
  owner       VARCHAR(255) CHARACTER SET utf8mb4 NULL,
  permits     INT NOT NULL,
  PRIMARY KEY (name, slot)
) ENGINE = InnoDB
