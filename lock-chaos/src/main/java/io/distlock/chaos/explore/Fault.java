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

    /**
     * The server is frozen (SIGSTOP) as the request reaches it, for one call bound (lease + 3 s) plus a second, then
     * resumed: past every lease, and a client call that waits for the server instead of its own timeout overruns.
     */
    SERVER_PAUSE("server-pause", true),

    /** The server is killed (SIGKILL) as the request arrives, which it never gets, and restarted from its files. */
    SERVER_RESTART("server-restart", true),

    /**
     * The server gets the request and answers it; 100 ms after the request arrived it is killed (SIGKILL) and
     * restarted from its files 0.3 s later: a crash just after a grant's answer, inside the window in which a server
     * that acknowledges before its write is durable (H2's write delay, asynchronous commit) loses what it answered.
     */
    SERVER_RESTART_SOON("server-restart-soon", true),

    /**
     * The server is killed as the request arrives and restarted from a copy of its files taken when the run began,
     * as a restore from an older backup: what it granted since is forgotten. Only on stores whose fixture owns its
     * data directory and whose files can be copied while it runs (Redis, ZooKeeper).
     */
    SERVER_RESTORE("server-restore", true),

    /**
     * The server is killed as the request arrives and restarted from a copy of its files taken mid-run, at step
     * {@code max(1, k / 2)}, after the run's first tokens were issued: what it granted between the copy and the
     * crash is forgotten, tokens issued since the copy among them (Redis with AOF, ZooKeeper).
     */
    SERVER_RESTORE_MID("server-restore-mid", true),

    /**
     * The store brings back a hold its client already let go: from step {@code k} on, the data is copied at the next
     * grant (a scenario client's, or the observer's probe, which after the scenario finds the name free) while that
     * hold is held; once the store no longer lists that hold (its holder released it and lives on), the server is
     * killed and restarted 0.3 s later from the copy, and a bystander client writes to another name, as the other
     * users of a shared store do, so the holder may resume its session or connection on the restored server (Redis
     * with AOF, ZooKeeper).
     */
    SERVER_RESTORE_RELEASED("server-restore-released", true),

    /**
     * The requesting client is frozen as if its process were stopped (SIGSTOP) from outside: every connection of
     * that client through the proxy, and any it opens meanwhile, passes nothing either way for the lease plus a
     * second, then flows again where it stopped (no connection is cut). The client's own timers run on, as a paused
     * process's do after SIGCONT.
     */
    CLIENT_FREEZE("client-freeze", false),

    /**
     * Every other connection of the requesting client open at that moment goes silent both ways and stays open, as
     * when a middlebox (NAT, firewall) forgets them: nothing is closed, so a connection that only listens (a
     * PostgreSQL LISTEN connection, a Redis subscriber) hears nothing and fails no read until it asks a question.
     * The request itself passes, and connections opened later work.
     */
    SILENT_DROP("silent-drop", false),

    /** The requesting client's store ({@code LockStore.close()}) is closed while the request is on its way. */
    STORE_CLOSE("store-close", false),

    /**
     * An operator's transaction locks the name's row(s) ({@code SELECT ... FOR UPDATE}) just before the request
     * reaches the server and keeps them past the client's timeout, then rolls back: the client's statement waits
     * for the row, the client gives up, the statement goes on (SQL stores).
     */
    ROW_LOCKED("row-locked", false),

    /** An operator deletes everything the store keeps for the name (its keys or rows) as the request arrives. */
    OPERATOR_DELETE("operator-delete", false),

    /**
     * An operator sets the name's fencing counter to the largest value the store keeps (SQL: Long.MAX_VALUE; Redis:
     * 2^53 - 1, above which its Lua arithmetic stops being exact): every later grant must be refused clearly, none
     * handed out twice or backwards, nothing left held.
     */
    OPERATOR_EXHAUST("operator-exhaust", false),

    /**
     * An operator writes a fencing value the store never writes (Redis: {@code nan}; SQL: {@code -5}), or on Redis
     * replaces the counter by a key of another type: the store must refuse clearly, not grant and lose the hold.
     */
    OPERATOR_GARBLE("operator-garble", false),

    /** Redis: an operator replaces the fencing counter by a hash (another type) as the request arrives. */
    OPERATOR_RETYPE("operator-retype", false);

    private final String label;
    private final boolean serverFault;

    Fault(String label, boolean serverFault) {
        this.label = label;
        this.serverFault = serverFault;
    }

    /** Whether an operator's hand on the store's data (not a failure of the wire or server) is the fault. */
    public boolean operatorFault() {
        return name().startsWith("OPERATOR_") || this == ROW_LOCKED;
    }

    /**
     * Whether the fault leaves the name's fencing state unusable on purpose (a fresh client may rightly be refused
     * at the end: the free check does not apply).
     */
    boolean spoilsFence() {
        return this == OPERATOR_EXHAUST || this == OPERATOR_GARBLE || this == OPERATOR_RETYPE;
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
