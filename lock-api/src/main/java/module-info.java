/**
 * The distlock API: {@code io.distlock} for applications and adapters, {@code io.distlock.spi} for stores. The core
 * ({@code io.distlock.core}) and the {@code mem:} store are not exported: stores are opened by URI through
 * {@link io.distlock.spi.LockStoreProvider}s found by {@link java.util.ServiceLoader}.
 */
module io.distlock {
    requires java.management;
    exports io.distlock;
    exports io.distlock.spi;

    uses io.distlock.spi.LockStoreProvider;

    provides io.distlock.spi.LockStoreProvider with io.distlock.mem.MemLockStoreProvider;
}
