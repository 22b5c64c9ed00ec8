/**
 * The shared core behind every store: reentrancy, local queuing, renewal, lease states and the Lock view.
 * Backends use {@link io.distlock.core.BackendLockStore}; everything else here is internal.
 */
package io.distlock.core;
