package org.apache.zookeeper;

/**
 * Makes a ZooKeeper client believe its session expired while the server keeps it (and its ephemeral nodes) until it
 * times out: what a client cut off for longer than its session timeout sees. It does what the client's own
 * {@code getTestable().injectSessionExpiration()} does, in a safe order: that one queues the Expired event before it
 * marks the handle closed, so Curator, handling the event, may close the still-open handle, and that ends the session
 * on the server at once (seen on a loaded machine: the old session's nodes were gone).
 */
public final class ClientSessions {

    private ClientSessions() {
    }

    /** Expires {@code zk}'s session on the client side only; the server keeps it until it times out. */
    public static void expireOnClientOnly(ZooKeeper zk) {
        ClientCnxn cnxn = zk.cnxn;
        cnxn.state = ZooKeeper.States.CLOSED; // first: closing this handle now sends nothing to the server
        cnxn.eventThread.queueEvent(new WatchedEvent(Watcher.Event.EventType.None, Watcher.Event.KeeperState.Expired,
                null));
        cnxn.eventThread.queueEventOfDeath();
        cnxn.sendThread.getClientCnxnSocket().onClosing();
    }
}
