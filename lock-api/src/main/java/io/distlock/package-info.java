/**
 * The distlock API: open a {@link io.distlock.LockStore} by URI, ask it for a {@link io.distlock.DistributedLock},
 * and hold a {@link io.distlock.Lease} with a fencing token while you work.
 */
package io.distlock;
