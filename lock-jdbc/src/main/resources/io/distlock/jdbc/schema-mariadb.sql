-- distlock lock table for MariaDB 10.3+. Replace ${table} with the table name (default distlock_locks).
-- One row per lock name in use. A free row stays until the clock passed its fence, so fence never goes back.
-- name uses a binary, no-pad collation: lock names are compared exactly (case and trailing spaces count).
-- Times are DATETIME(3) in UTC (distlock pins its sessions to time_zone '+00:00') and are only ever compared
-- with the database's NOW(3).
CREATE TABLE IF NOT EXISTS ${table} (
  name        VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  owner_token VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL,
  fence       BIGINT NOT NULL,
  expires_at  DATETIME(3) NULL,
  owner       VARCHAR(255) CHARACTER SET utf8mb4 NULL,
  acquired_at DATETIME(3) NULL,
  PRIMARY KEY (name)
) ENGINE = InnoDB
