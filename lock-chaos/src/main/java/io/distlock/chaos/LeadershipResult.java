package io.distlock.chaos;

import java.time.Duration;

/**
 * The numbers of one leadership run.
 *
 * @param store the store under test
 * @param scenario the fault
 * @param faults faults injected
 * @param faultsMidTerm faults that started while some campaigner was leader (a killed leader's term counting until
 *        the next election, since its lease is held until it runs out)
 * @param elections ELECTED events (terms won)
 * @param distinctTerms distinct term numbers among them
 * @param silentDoubleLeaders pairs of terms of different campaigners at the same moment where neither was told its
 *        term ended (revoked after a loss, or the term's lost signal): two leaders acting, silently
 * @param toldDoubleLeaders pairs of terms at the same moment where one was told (a frozen leader outliving its term)
 * @param termsReissued elections whose term number an earlier election already had
 * @param termsOutOfOrder elections whose term is not above a term that had ended before it began, among terms
 *        whose holder was never told of a loss
 * @param writesAccepted leader writes the fenced register accepted
 * @param refusals reads and writes of leaders the register refused (a higher term had been seen)
 * @param staleWritesAccepted writes issued after a higher term had been elected and still accepted
 * @param lostUpdates accepted writes that overwrote an update they had not read
 * @param recovery fault end to the next election, or null
 * @param unsafeByDesign whether the store and fault are documented unsafe (double leaders then expected)
 * @param note what the run shows
 */
record LeadershipResult(String store, String scenario, int faults, long faultsMidTerm, long elections,
        long distinctTerms, long silentDoubleLeaders, long toldDoubleLeaders, long termsReissued, long termsOutOfOrder,
        long writesAccepted, long refusals, long staleWritesAccepted, long lostUpdates, Duration recovery,
        boolean unsafeByDesign, String note) implements WorkloadResult {

    /** The table's header and separator lines. */
    static final String HEADER = "| store | scenario | faults (mid-term) | elections (distinct terms) | silent double "
            + "leaders | told double leaders | terms re-issued | terms out of order | leader writes accepted | "
            + "refused (ended terms) | stale writes accepted | lost updates | recovery | bars | note |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";

    @Override
    public boolean meetsBars() {
        return elections > 0 && termsReissued == 0 && termsOutOfOrder == 0 && staleWritesAccepted == 0
                && lostUpdates == 0 && (unsafeByDesign || silentDoubleLeaders == 0);
    }

    @Override
    public boolean expectedUnsafe() {
        return unsafeByDesign && silentDoubleLeaders + toldDoubleLeaders > 0 && meetsBars();
    }

    @Override
    public String summary() {
        return faults + " faults, " + faultsMidTerm + " mid-term, " + elections + " elections, " + silentDoubleLeaders
                + " silent double leaders, " + toldDoubleLeaders + " told, " + refusals + " refused, "
                + staleWritesAccepted + " stale writes accepted, " + termsReissued + " terms re-issued, "
                + termsOutOfOrder + " out of order";
    }

    @Override
    public String markdownRow() {
        return "| " + store + " | " + scenario + " | " + faults + " (" + faultsMidTerm + ") | " + elections + " ("
                + distinctTerms + ") | " + silentDoubleLeaders + " | " + toldDoubleLeaders + " | " + termsReissued
                + " | " + termsOutOfOrder + " | " + writesAccepted + " | " + refusals + " | " + staleWritesAccepted
                + " | " + lostUpdates + " | " + WorkloadResult.seconds(recovery) + " | " + verdict() + " | "
                + WorkloadResult.cell(note) + " |\n";
    }

    /** A run that broke down: no numbers, the reason in the note. */
    static LeadershipResult failed(String store, String scenario, String why) {
        return new LeadershipResult(store, scenario, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false,
                "run failed: " + why);
    }
}
