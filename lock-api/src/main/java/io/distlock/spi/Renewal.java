package io.distlock.spi;

import java.time.Duration;

/**
 * One lease to renew: the grant and the lease time to renew it for.
 *
 * @param grant the lease's grant
 * @param leaseTime how long from now the store should keep it
 */
public record Renewal(Grant grant, Duration leaseTime) {
}
