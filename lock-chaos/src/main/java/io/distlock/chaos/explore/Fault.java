package io.distlock.chaos.explore;

import java.util.Arrays;
import java.util.List;

/**
 * What the explorer does to one round trip of a scenario (the step): the wire faults act on the connection that
 * carries it, the server faults on the store's own server at that moment. {@link #NONE} is the counting run.
 */
public enum Fault {

    /** Nothing: the run that counts the steps. */
    NONE("none", false),

    /** The request never reaches the server, and nothing more passes on that connection: the client must time out. */
    REQUEST_LOST("request-lost", false),

    /** The server gets the request and acts on it; its reply and everything after it on that connection is lost. */
    REPLY_LOST("reply-lost", false),

    /**
     * The request reaches the server only after the client's timeout (a congested path, a statement queued behind a
     * lock): the server acts on a request its client has given up on.
     */
    LATE_REQUEST("late-request", false),

    /** The server acts; its reply (and what follows on that connection) arrives after the client's timeout. */
    LATE_REPLY("late-reply", false),

    /** The connection is cut (both ends closed) before the request reaches the server. */
    CUT_BEFORE("cut-before", false),

    /** The request reaches the server, then the connection is cut before the reply reaches the client. */
    CUT_AFTER("cut-after", false),

    /** The server is frozen (SIGSTOP) as the request reaches it, for the lease plus a second, then resumed. */
    SERVER_PAUSE("server-pause", true),

    /** The server is killed (SIGKILL) as the request arrives, which it never gets, and restarted from its files. */
    SERVER_RESTART("server-restart", true),

    /**
     * The server is killed as the request arrives and restarted from a copy of its files taken when the run began,
     * as a restore from an older backup: what it granted since is forgotten. Only on stores whose fixture owns its
     * data directory and whose files can be copied while it runs (Redis, ZooKeeper).
     */
    SERVER_RESTORE("server-restore", true);

    private final String label;
    private final boolean serverFault;

    Fault(String label, boolean serverFault) {
        this.label = label;
        this.serverFault = serverFault;
    }

    /** The fault's name in run names and reports. */
    public String label() {
        return label;
    }

    /** Whether the fault hits the server rather than one connection. */
    public boolean serverFault() {
        return serverFault;
    }

    /** Every fault the explorer injects (not {@link #NONE}). */
    public static List<Fault> injected() {
        return Arrays.stream(values()).filter(f -> f != NONE).toList();
    }

    /** The fault named {@code label}. */
    public static Fault of(String label) {
        return Arrays.stream(values()).filter(f -> f.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fault '" + label + "'; faults: "
                        + Arrays.stream(values()).map(Fault::label).toList()));
    }
}
