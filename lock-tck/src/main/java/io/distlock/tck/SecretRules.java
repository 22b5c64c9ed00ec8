package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §17 Secrets in store URIs never show: not in {@code toString()}, not in an exception message (or its causes'),
 * not in a log line, whatever URI delimiters a password holds and whichever parameter carries it.
 */
public interface SecretRules extends TckSupport {

    /** Two halves the secrets are built from, so that a leak of either half around a delimiter is caught. */
    String LEFT = "Xq7vTck";
    /** See {@link #LEFT}. */
    String RIGHT = "Zr9wTck";
    /** The characters §17.1 puts between the halves: each is a URI delimiter a naive parser cuts at. */
    List<String> DELIMITERS = List.of("@", "/", "?", "#", "%", ":");

    /**
     * URIs of the store under test that carry {@code secret} raw (not percent-encoded) in every place this store
     * reads a secret from: the password of the user info and each secret-bearing parameter its clients accept
     * ({@code password=}, {@code sslpassword=}, {@code trustCertificateKeyStorePassword=}, ...). They may point at the
     * real server (the store opens, or refuses the credentials) or at none. The default, none, skips §17.1.
     */
    default List<String> urisWithSecret(String secret) {
        return List.of();
    }

    @Test
    @DisplayName("§17.1 a password holding @ / ? # % : or any secret parameter never shows in toString, messages or "
            + "logs")
    default void rule_17_1_secretsInUrisNeverShow() {
        Assumptions.assumeTrue(!urisWithSecret(LEFT + RIGHT).isEmpty(),
                "skipped: the store under test gives the kit no URI with secrets");
        for (String delimiter : DELIMITERS) {
            String secret = LEFT + delimiter + RIGHT;
            for (String uri : urisWithSecret(secret)) {
                List<String> shown = new ArrayList<>();
                String logged = LogCapture.during(() -> useStore(uri, shown));
                shown.add(logged);
                for (String text : shown) {
                    assertThat(text).as("what %s showed", StoreUri.redact(uri))
                            .doesNotContain(LEFT).doesNotContain(RIGHT);
                }
            }
        }
    }

    /** Opens {@code uri}, takes and releases a lock, and collects every text the store shows on the way. */
    private void useStore(String uri, List<String> shown) {
        StoreUri parsed = StoreUri.parse(uri);
        shown.add(parsed.toString());
        shown.add(parsed.redacted());
        try (LockStore store = LockStore.open(uri)) {
            shown.add(store.toString());
            var lock = store.lock(tck().name("secret"));
            shown.add(lock.toString());
            Optional<Lease> lease = lock.tryAcquire();
            lease.ifPresent(l -> {
                shown.add(l.toString());
                l.release();
            });
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                shown.add(t.toString());
                for (Throwable suppressed : t.getSuppressed()) {
                    shown.add(suppressed.toString());
                }
            }
        }
    }
}
