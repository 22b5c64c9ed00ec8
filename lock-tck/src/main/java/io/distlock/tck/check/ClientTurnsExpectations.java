package io.distlock.tck.check;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the bound on local hand-overs promises two contending clients, with wide margins for a loaded machine: a
 * client's threads pass a lock among themselves at most 8 times after taking it in the store, so a streak is at most
 * 9 holders, and then the other client gets a chance. Perfect turns would change client once per 9 holders and split
 * the acquisitions evenly; this asks for a change at least once per 2 streaks and 15% for each of two clients.
 */
public final class ClientTurnsExpectations {

    /** Holders in a row one client may have: one acquisition in the store plus the bounded hand-overs. */
    public static final int LONGEST_STREAK = 9;

    private ClientTurnsExpectations() {
    }

    /** Asserts that each of two clients got its share of {@code turns} and that the lock changed client often. */
    public static void assertBothClientsGetTurns(ClientTurns turns) {
        int n = turns.acquisitions();
        assertThat(turns.acquisitionsOf(0)).as("client 0's acquisitions in " + turns)
                .isGreaterThanOrEqualTo(n * 15 / 100);
        assertThat(turns.acquisitionsOf(1)).as("client 1's acquisitions in " + turns)
                .isGreaterThanOrEqualTo(n * 15 / 100);
        assertThat(turns.changesOfClient()).as("changes of client in " + turns)
                .isGreaterThanOrEqualTo(n / (2 * LONGEST_STREAK));
    }
}
