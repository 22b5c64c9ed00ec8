package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * The listing and fence read sent as one read-only transaction ({@link Listing#BOTH}): both results handed out as the
 * two reads hand them out, and a server older than 3.6 that answers UNIMPLEMENTED ends the waits at once and says so,
 * so that the store sends the two reads apart from then on.
 */
class ListingTest {

    private static final long SOON = 5_000_000_000L;

    @Test
    void bothReadsInOneTransactionHandOutTheChildrenAndTheFence() throws Exception {
        Listing listing = new Listing();
        Stat stat = new Stat();
        stat.setVersion(7);
        Listing.BOTH.processResult(KeeperException.Code.OK.intValue(), "/p", listing, List.of(
                new OpResult.GetChildrenResult(List.of("a-lock-0000000001")),
                new OpResult.GetDataResult("41".getBytes(StandardCharsets.US_ASCII), stat)));
        assertThat(listing.awaitShowing("a-lock-0000000001", System.nanoTime() + SOON, false))
                .containsExactly("a-lock-0000000001");
        Listing.Fence fence = listing.fence(System.nanoTime() + SOON, false);
        assertThat(fence).isNotNull();
        assertThat(new String(fence.data(), StandardCharsets.US_ASCII)).isEqualTo("41");
        assertThat(fence.stat().getVersion()).isEqualTo(7);
        assertThat(listing.unimplemented()).isFalse();
    }

    @Test
    void aServerWithoutReadOnlyTransactionsEndsTheWaitsAndIsToldApart() throws Exception {
        Listing listing = new Listing();
        Listing.BOTH.processResult(KeeperException.Code.UNIMPLEMENTED.intValue(), "/p", listing, null);
        long before = System.nanoTime();
        assertThat(listing.awaitShowing("a-lock-0000000001", before + SOON, false)).isNull();
        assertThat(System.nanoTime() - before).as("the wait ended by the answer, not the deadline").isLessThan(SOON);
        assertThat(listing.unimplemented()).isTrue();
    }

    @Test
    void aFailedListingInTheTransactionIsTakenAgain() throws Exception {
        Listing listing = new Listing();
        Listing.BOTH.processResult(KeeperException.Code.OK.intValue(), "/p", listing, List.of(
                new OpResult.ErrorResult(KeeperException.Code.NONODE.intValue()),
                new OpResult.ErrorResult(KeeperException.Code.NONODE.intValue())));
        assertThat(listing.awaitShowing("a-lock-0000000001", System.nanoTime() + SOON, false)).isNull();
        assertThat(listing.fence(System.nanoTime() + SOON, false)).isNull();
        assertThat(listing.unimplemented()).isFalse();
    }
}
