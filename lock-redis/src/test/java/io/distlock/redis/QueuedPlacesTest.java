package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The waiter queues a client remembers standing in: live places only, the latest expiry of a name kept. */
class QueuedPlacesTest {

    @Test
    void expiredPlacesAreForgottenAndALaterExpiryWins() {
        QueuedPlaces places = new QueuedPlaces();
        places.queued("gone", -1);
        places.queued("kept", TimeUnit.MINUTES.toNanos(1));
        places.queued("renewed", -1);
        places.queued("renewed", TimeUnit.MINUTES.toNanos(1));
        places.queued("kept", -1); // an earlier expiry does not shorten the place

        assertThat(places.live()).containsExactlyInAnyOrder("kept", "renewed");
    }

    @Test
    void namesUsedOnceStayBoundedByTheLivePlaces() {
        QueuedPlaces places = new QueuedPlaces();
        for (int i = 0; i < 100_000; i++) {
            places.queued("once-" + i, -1);
        }
        places.queued("live", TimeUnit.MINUTES.toNanos(1));

        assertThat(places.live()).containsExactly("live");
    }
}
