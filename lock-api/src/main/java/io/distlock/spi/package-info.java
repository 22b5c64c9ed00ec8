/**
 * The store SPI: a {@link io.distlock.spi.LockStoreProvider} found by {@link java.util.ServiceLoader} opens a
 * {@link io.distlock.spi.LockBackend}, which implements only the store's atomic operations, and the optional abilities
 * it has ({@link io.distlock.spi.PermitBackend}, {@link io.distlock.spi.HandOvers}); the shared core in
 * {@code io.distlock.core} wraps it and does everything else. A store author implements only this package.
 */
package io.distlock.spi;
