package io.distlock.zookeeper;

import org.apache.zookeeper.data.Stat;

/**
 * What a lock waiter right behind the holder keeps so that, once the holder's node goes, it can send its stamp in the
 * same burst as its listing instead of a round trip later: the holder's node name and the parent's fence as the waiter
 * read it behind the listing that queued it. Kept only if that read came after the holder's own stamp (the parent and
 * the holder's node carry the same {@code mzxid}, {@link ZooKeeperBackend#nextToken}): the holder had come first, and
 * the parent's fence moves again only with the next grant's stamp, so the waiter's stamp at that version is the write
 * a read after the holder's deletion would have made, and a fence moved by any other hand makes it fail and read again.
 * The listing it rides behind still decides the grant: a stamp is never a grant.
 *
 * @param predecessor the holder's node name, whose deletion lets the stamp go
 * @param fence the parent's fence read behind the listing, after the holder's stamp
 */
record StampAhead(String predecessor, Listing.Fence fence) {

    /**
     * What to keep while waiting behind {@code predecessor}, whose node a read has just described with {@code stat},
     * given the fence read behind the listing that found us right behind it (null if none); null if that read is
     * not known to be the holder's stamp.
     */
    static StampAhead of(String predecessor, Stat stat, Listing.Fence fence) {
        if (stat == null || fence == null || stat.getMzxid() != fence.stat().getMzxid()) {
            return null;
        }
        return new StampAhead(predecessor, fence);
    }

    /** A stamp sent at {@link #fence}, not yet waited for: its answer and the token it wrote. */
    record Sent(StampCall call, long next) {
    }
}
