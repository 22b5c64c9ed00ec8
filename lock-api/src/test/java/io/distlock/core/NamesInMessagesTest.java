package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.Arguments;
import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Names are user input: a name holding a line break must not forge a line of its own in a log or an exception
 * message, and a long name must not flood them (found by the r10 safety review).
 */
class NamesInMessagesTest {

    static final String FORGING = "x\n[ERROR] forged\r[ERROR] forged\u2028[ERROR] forged\u0085[ERROR] forged";

    /** The lines an operator would read in {@code text}, split where a terminal or a log viewer breaks lines. */
    static List<String> lines(String text) {
        return Arrays.asList(text.split("\r\n|[\n\r\u2028\u2029\u0085\u000B\u000C]"));
    }

    static List<String> forged(List<String> texts) {
        List<String> forged = new ArrayList<>();
        for (String t : texts) {
            lines(t).stream().filter(l -> l.startsWith("[ERROR] forged")).forEach(forged::add);
        }
        return forged;
    }

    @Test
    void aNameWithLineBreaksForgesNoLogLineWhenALeadershipListenerThrows() {
        List<String> warnings;
        try (LoggedLines logged = new LoggedLines(CampaignLoop.class);
             LockStore store = LockStore.open("mem:forging-" + UUID.randomUUID());
             Leadership leadership = store.leadership(FORGING, new LeadershipListener() {
                 @Override
                 public void elected(Lease term) {
                     throw new IllegalStateException("listener fails");
                 }

                 @Override
                 public void revoked(Lease term) {
                 }
             })) {
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !logged.atLeast(Level.WARNING).isEmpty());
            warnings = logged.atLeast(Level.WARNING);
        }
        assertThat(forged(warnings)).as("forged lines in %s", warnings).isEmpty();
        assertThat(warnings.get(0)).contains(Arguments.quoted(FORGING));
    }

    @Test
    void aNameWithLineBreaksForgesNoLineInALostLeaseMessageNorItsLog() {
        Throwable lost;
        List<String> logged;
        try (LoggedLines lines = new LoggedLines(BackendLockStore.class);
             LockStore store = LockStore.open("mem:forging-" + UUID.randomUUID())) {
            Lease lease = store.lock(FORGING).tryAcquire().orElseThrow();
            assertThat(store.admin().forceRelease(FORGING)).isTrue();
            lost = catchThrowable(lease::close);
            logged = lines.all();
        }
        assertThat(lost).isNotNull();
        List<String> texts = new ArrayList<>(logged);
        texts.add(lost.getMessage());
        assertThat(forged(texts)).as("forged lines in %s", texts).isEmpty();
    }

    @Test
    void aLongNameIsCutInALostLeaseMessage() {
        Throwable lost;
        try (LockStore store = LockStore.open("mem:long-" + UUID.randomUUID())) {
            String name = "n".repeat(store.features().maxNameLength());
            Lease lease = store.lock(name).tryAcquire().orElseThrow();
            assertThat(store.admin().forceRelease(name)).isTrue();
            lost = catchThrowable(lease::close);
            assertThat(lost.getMessage()).as("a lost lease's message for a name of %s characters", name.length())
                    .hasSizeLessThan(400).contains("(" + name.length() + " characters)");
        }
    }

    @Test
    void quotedEscapesWhatCouldForgeALineAndCutsLongNames() {
        assertThat(Arguments.quoted("orders:42")).isEqualTo("'orders:42'");
        assertThat(Arguments.quoted("a\nb\tc\\d'e\u0000f\u202Eg\u2028")).isEqualTo(
                "'a\\nb\\tc\\\\d\\'e\\u0000f\\u202Eg\\u2028'");
        assertThat(Arguments.quoted("\uD83D\uDE00 ok \uD800")).isEqualTo("'\uD83D\uDE00 ok \\uD800'");
        assertThat(Arguments.printable("it's a\nb\u001B[2J")).isEqualTo("it's a\\nb\\u001B[2J");
        assertThat(Arguments.printable("x".repeat(500))).isEqualTo("x".repeat(500));
        String cut = Arguments.quoted("a".repeat(99) + "\uD83D\uDE00" + "b".repeat(5000));
        assertThat(cut).isEqualTo("'" + "a".repeat(99) + "\u2026' (5101 characters)");
    }

    /**
     * {@link Arguments#quoted} and {@link Arguments#printable} never throw and never let a control, format or
     * line-separator character or half a surrogate pair through, whatever the text (seeded random strings mixing
     * lone surrogates, C0 controls and any BMP character); null and huge texts included (r10 safety review of S46).
     */
    @Test
    void quotedAndPrintableNeverThrowNorLetARawControlCharacterThrough() {
        assertThat(Arguments.quoted(null)).isEqualTo("null");
        assertThat(Arguments.printable(null)).isNull();
        assertThat(Arguments.quoted("")).isEqualTo("''");
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 50_000; i++) {
            char[] text = new char[random.nextInt(i % 100 == 0 ? 400 : 120)];
            for (int j = 0; j < text.length; j++) {
                text[j] = switch (random.nextInt(6)) {
                    case 0 -> (char) (0xD800 + random.nextInt(0x400));
                    case 1 -> (char) (0xDC00 + random.nextInt(0x400));
                    case 2 -> (char) random.nextInt(0x20);
                    case 3 -> (char) random.nextInt(0x10000);
                    default -> (char) ('a' + random.nextInt(26));
                };
            }
            String name = new String(text);
            String quoted = Arguments.quoted(name);
            assertThat(quoted.length()).as("quoted length").isLessThanOrEqualTo(2 + 6 * 100 + 40);
            assertNoRawControl(quoted, name);
            assertNoRawControl(Arguments.printable(name), name);
        }
        assertThat(Arguments.quoted("\u0001".repeat(1_000_000))).endsWith("' (1000000 characters)");
    }

    private static void assertNoRawControl(String out, String from) {
        for (int j = 0; j < out.length(); j++) {
            char c = out.charAt(j);
            int type = Character.getType(c);
            boolean half = Character.isHighSurrogate(c)
                    ? !(j + 1 < out.length() && Character.isLowSurrogate(out.charAt(j + 1)))
                    : Character.isLowSurrogate(c) && !(j > 0 && Character.isHighSurrogate(out.charAt(j - 1)));
            if (half || type == Character.CONTROL || type == Character.FORMAT
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
                org.assertj.core.api.Assertions.fail(String.format("raw U+%04X at %d of %s (from %s)", (int) c, j, out,
                        from.chars().mapToObj(Integer::toHexString).toList()));
            }
        }
    }
}
