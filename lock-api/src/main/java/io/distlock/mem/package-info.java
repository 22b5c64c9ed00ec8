/** The in-memory {@code mem:} store: real leases, fencing and waiting inside one JVM. */
package io.distlock.mem;
