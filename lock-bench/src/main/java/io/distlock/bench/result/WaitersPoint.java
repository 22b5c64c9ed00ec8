package io.distlock.bench.result;

import io.distlock.bench.core.Role;

/**
 * One point of the waiters curve: {@code clients} clients, each with its own connection and one thread and sharing
 * nothing in-process with the others (as separate services), all on one name, each holding it a while; cost per
 * acquisition and how the acquisitions fell to the clients.
 *
 * @param contender the contender's display name
 * @param role what it stands for
 * @param clients clients waiting on the one name
 * @param cost cost per acquisition (null if the run failed)
 * @param failure why the run failed, or null
 * @param fewest acquisitions of the least served client (0 if failed)
 * @param most acquisitions of the most served client (0 if failed)
 */
public record WaitersPoint(String contender, Role role, int clients, OpCost cost, String failure, long fewest,
                           long most) {

    /** A failed point. */
    public static WaitersPoint failed(String contender, Role role, int clients, String failure) {
        return new WaitersPoint(contender, role, clients, null, failure, 0, 0);
    }
}
