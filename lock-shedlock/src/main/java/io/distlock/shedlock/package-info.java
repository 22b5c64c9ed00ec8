/** A ShedLock {@code LockProvider} over a distlock {@code LockStore}. */
package io.distlock.shedlock;
