package io.distlock.core;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Losses a backend reports for grants of a name whose acquisition is in flight (granted in the store, not yet
 * registered by the core): the acquisition {@link #begin}s before its store call and {@link #end}s after registering,
 * and gets back the loss reported meanwhile for its grant. A name has an entry only while an acquisition of it runs,
 * so nothing piles up.
 *
 * <p>Allocation: an uncontended acquisition costs one map entry and nothing else. While no loss arrived, the entry is
 * the count of acquisitions of the name in flight as a boxed small {@link Integer} (cached by the JDK, so no object
 * per acquisition); the first loss turns it into a {@link Flight} that also keeps the reasons.
 */
final class InFlightLosses {

    /** Per name: an Integer (acquisitions in flight, no loss yet) or a Flight; changed only by atomic map updates. */
    private final ConcurrentHashMap<String, Object> byName = new ConcurrentHashMap<>();

    /** One more acquisition of {@code name} in flight; pair with {@link #end}. */
    void begin(String name) {
        byName.merge(name, 1, InFlightLosses::join);
    }

    /**
     * One acquisition of {@code name} is no longer in flight.
     *
     * @param ownerToken the owner token of its grant, or null if it got none
     * @return the reason of the loss reported for that grant while in flight, or null
     */
    String end(String name, String ownerToken) {
        while (true) {
            Object entry = byName.get(name);
            if (entry instanceof Integer users) {
                if (users == 1 ? byName.remove(name, entry) : byName.replace(name, entry, users - 1)) {
                    return null;
                }
            } else if (entry instanceof Flight) {
                String[] reason = new String[1]; // only once a loss arrived
                byName.computeIfPresent(name, (k, e) -> {
                    Flight flight = (Flight) e;
                    reason[0] = ownerToken == null ? null : flight.losses.remove(ownerToken);
                    return --flight.users == 0 ? null : flight;
                });
                return reason[0];
            } else {
                throw new IllegalStateException("no acquisition of '" + name + "' is in flight");
            }
        }
    }

    /** Keeps the loss of the grant with {@code ownerToken} if an acquisition of {@code name} is in flight. */
    void record(String name, String ownerToken, String reason) {
        byName.computeIfPresent(name, (k, entry) -> {
            Flight flight = entry instanceof Flight f ? f : new Flight((Integer) entry);
            flight.losses.putIfAbsent(ownerToken, reason);
            return flight;
        });
    }

    /** Number of losses kept (for tests: they must not pile up). */
    int kept() {
        int kept = 0;
        for (Object entry : byName.values()) {
            if (entry instanceof Flight flight) {
                kept += flight.losses.size();
            }
        }
        return kept;
    }

    private static Object join(Object entry, Object one) {
        if (entry instanceof Flight flight) {
            flight.users++;
            return flight;
        }
        return (Integer) entry + 1;
    }

    /** The acquisitions of one name in flight once a loss arrived, and the losses by owner token. */
    private static final class Flight {
        /** Guarded by the map's atomic update of the name. */
        int users;
        final Map<String, String> losses = new ConcurrentHashMap<>(); // concurrent only for kept()

        Flight(int users) {
            this.users = users;
        }
    }
}
