package io.distlock.zookeeper;

import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;

/**
 * The answer to a stamp transaction ({@link ZooKeeperBackend#nextToken}): its result code, and each operation's error
 * and stat. An ordinary stamp (two versioned writes) is sent straight on the ZooKeeper handle as this callback, without
 * Curator's transaction builders, retry wrapper and event objects (about 3 kB and one event per grant); one that
 * also moves the pin goes through Curator (its create takes the store's ACLs) and is read {@link #of} its event.
 * A stamp that lost its connection is not sent again here: the caller reads the fence again and writes at what it
 * reads, as after any other failed write. A late answer needs no clean-up ({@link PlainCall#late()}): the stamp, if
 * applied, wrote a token nobody was given (a later grant's passes it) to a node the failed acquire deletes.
 */
final class StampCall extends PlainCall implements AsyncCallback.MultiCallback {

    private int code = KeeperException.Code.OK.intValue();
    /** The operations' results as ZooKeeper gave them (null if the transaction failed before the server ran it). */
    private List<OpResult> results;

    @Override
    public void processResult(int rc, String path, Object ctx, List<OpResult> opResults) {
        this.results = opResults;
        this.code = rc;
        answered();
    }

    /** The transaction's result code: OK, or the first failed operation's. */
    int code() {
        return code;
    }

    /** The error code of operation {@code index}, or the transaction's if no result says (OK where it succeeded). */
    int error(int index) {
        List<OpResult> list = results;
        if (list == null || list.size() <= index) {
            return code;
        }
        return list.get(index) instanceof OpResult.ErrorResult error ? error.getErr()
                : KeeperException.Code.OK.intValue();
    }

    /** The stat operation {@code index} (a setData) left its node at, if the transaction succeeded. */
    Stat stat(int index) {
        return ((OpResult.SetDataResult) results.get(index)).getStat();
    }

    /** A stamp transaction that went through Curator, read the same way. */
    static StampCall of(CuratorEvent event) {
        StampCall call = new StampCall();
        List<CuratorTransactionResult> curator = event.getOpResults();
        List<OpResult> converted = null;
        if (curator != null) {
            converted = new ArrayList<>(curator.size());
            for (CuratorTransactionResult result : curator) {
                converted.add(result.getError() != KeeperException.Code.OK.intValue()
                        ? new OpResult.ErrorResult(result.getError())
                        : new OpResult.SetDataResult(result.getResultStat()));
            }
        }
        call.processResult(event.getResultCode(), event.getPath(), null, converted);
        return call;
    }
}
