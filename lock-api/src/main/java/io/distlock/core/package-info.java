/**
 * The shared core behind every store: reentrancy, local queuing, renewal, lease states and the Lock view.
 * {@link io.distlock.core.StoreDiscovery} puts each provider's backend behind a
 * {@link io.distlock.core.BackendLockStore}; everything else here is internal.
 */
package io.distlock.core;
