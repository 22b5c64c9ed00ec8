package io.distlock;

import java.time.Duration;

/**
 * A held lock as an operator sees it.
 *
 * @param name the lock name
 * @param fencingToken the holder's fencing token
 * @param timeLeft how long the lease lasts without renewal, or null for session-bound leases
 * @param owner a description of the holder (host and process), never its secret owner token
 */
public record LockInfo(String name, long fencingToken, Duration timeLeft, String owner) {
}
