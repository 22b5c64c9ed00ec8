/** Micrometer metrics for a distlock {@code LockStore}, recorded by a decorator of the store. */
package io.distlock.micrometer;
