package io.distlock.bench.result;

import io.distlock.bench.core.Role;

/**
 * One point of the waiters curve: {@code clients} clients, each with its own connection and one thread, all on one
 * name, each holding it briefly; cost per acquisition.
 *
 * @param contender the contender's display name
 * @param role what it stands for
 * @param clients clients waiting on the one name
 * @param cost cost per acquisition (null if the run failed)
 * @param failure why the run failed, or null
 */
public record WaitersPoint(String contender, Role role, int clients, OpCost cost, String failure) {
}
