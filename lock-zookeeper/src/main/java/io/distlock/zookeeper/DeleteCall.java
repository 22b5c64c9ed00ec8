package io.distlock.zookeeper;

import org.apache.zookeeper.AsyncCallback;

/**
 * The answer to a release's delete sent straight on the ZooKeeper handle ({@link ZooKeeperBackend#release}), without
 * Curator's builders, retry wrapper and event objects. The handle sends nothing again: a delete that lost its
 * connection or session (or whose answer did not come in time) is handed to Curator's guaranteed delete, which does.
 * So a late answer needs no clean-up ({@link PlainCall#late()}): if this delete was applied, Curator's finds no node.
 */
final class DeleteCall extends PlainCall implements AsyncCallback.VoidCallback {

    private int code;

    @Override
    public void processResult(int rc, String path, Object ctx) {
        this.code = rc;
        answered();
    }

    /** The delete's result code, once answered. */
    int code() {
        return code;
    }
}
