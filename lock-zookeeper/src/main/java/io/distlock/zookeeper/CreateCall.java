package io.distlock.zookeeper;

import java.util.function.Consumer;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The answer to one create sent straight on the ZooKeeper handle ({@code create2}: the node's name and stat), waited
 * for within a deadline ({@link PlainCall}). A node that the server made after the wait was given up (it ran out, was
 * interrupted or cancelled by close) is handed to the clean-up given at construction, as {@link BoundedCall} does for
 * Curator's create: nobody uses it.
 */
final class CreateCall extends PlainCall implements AsyncCallback.Create2Callback {

    private final Consumer<String> lateNode;
    private int code;
    private String name;
    private Stat stat;

    /** @param lateNode deletes a node (its full path) that was made after the wait for it was given up */
    CreateCall(Consumer<String> lateNode) {
        this.lateNode = lateNode;
    }

    @Override
    public void processResult(int rc, String path, Object ctx, String createdName, Stat createdStat) {
        this.code = rc;
        this.name = createdName;
        this.stat = createdStat;
        answered();
    }

    /** A node made for a caller that gave up goes to the clean-up. */
    @Override
    protected void late() {
        if (code == KeeperException.Code.OK.intValue() && name != null) {
            lateNode.accept(name);
        }
    }

    /** The result code of an answered create. */
    int code() {
        return code;
    }

    /** The full path of the node made (with the chroot), if the create succeeded. */
    String name() {
        return name;
    }

    /** The stat of the node made, if the create succeeded. */
    Stat stat() {
        return stat;
    }
}
