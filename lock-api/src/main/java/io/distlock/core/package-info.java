/**
 * The shared core behind every store: reentrancy, local queuing, renewal and lease states. Not exported by the
 * module: {@link io.distlock.core.StoreDiscovery} puts each provider's backend behind a
 * {@link io.distlock.core.BackendLockStore} for {@link io.distlock.LockStore#open(String)}, and
 * {@link io.distlock.spi.Stores} does for a backend made without a provider.
 */
package io.distlock.core;
