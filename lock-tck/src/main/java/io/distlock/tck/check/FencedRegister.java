package io.distlock.tck.check;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;

/**
 * A shared resource for fault runs: a counter in a file that several processes update by read-modify-write,
 * fenced as Kleppmann describes. Each read and write carries the caller's fencing token; the register refuses a
 * token lower than the highest it has seen, and remembers the highest. A write also says which value it read, so the
 * register counts lost updates (a write whose read was overtaken by another accepted write). Each operation is
 * atomic across processes through an OS file lock, as a real fenced store's check-and-write would be.
 */
public final class FencedRegister {

    /** What a fenced read returned: the value, or a refusal because a higher token was already seen. */
    public record Read(boolean accepted, long value, long highestToken) {
    }

    /** What a fenced write did: accepted or refused, and whether an accepted write overwrote an unseen update. */
    public record Write(boolean accepted, boolean lostUpdate, long highestToken) {
    }

    /** The register's state: highest token seen, value, accepted and refused writes, lost updates. */
    public record State(long highestToken, long value, long accepted, long refused, long lostUpdates) {
    }

    private final Path file;

    /** A register stored in {@code file}, created empty on first use. */
    public FencedRegister(Path file) {
        this.file = file;
    }

    /** A fenced read: registers {@code token} as the highest seen if it is, and returns the value. */
    public Read read(long token) {
        return update(state -> {
            if (token < state.highestToken()) {
                return new Outcome<>(new Read(false, state.value(), state.highestToken()), state);
            }
            State next = new State(token, state.value(), state.accepted(), state.refused(), state.lostUpdates());
            return new Outcome<>(new Read(true, state.value(), token), next);
        });
    }

    /** A fenced write of {@code newValue} computed from the value {@code readValue}. */
    public Write write(long token, long readValue, long newValue) {
        return update(state -> {
            if (token < state.highestToken()) {
                State next = new State(state.highestToken(), state.value(), state.accepted(), state.refused() + 1,
                        state.lostUpdates());
                return new Outcome<>(new Write(false, false, state.highestToken()), next);
            }
            boolean lost = state.value() != readValue;
            State next = new State(token, newValue, state.accepted() + 1, state.refused(),
                    state.lostUpdates() + (lost ? 1 : 0));
            return new Outcome<>(new Write(true, lost, token), next);
        });
    }

    /** The current state. */
    public State state() {
        return update(state -> new Outcome<>(state, state));
    }

    private record Outcome<T>(T result, State next) {
    }

    private <T> T update(java.util.function.Function<State, Outcome<T>> change) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
             FileChannel channel = raf.getChannel();
             FileLock lock = channel.lock()) {
            State current = decode(channel);
            Outcome<T> outcome = change.apply(current);
            if (!outcome.next().equals(current)) {
                ByteBuffer buffer = ByteBuffer.allocate(40);
                buffer.putLong(outcome.next().highestToken()).putLong(outcome.next().value())
                        .putLong(outcome.next().accepted()).putLong(outcome.next().refused())
                        .putLong(outcome.next().lostUpdates()).flip();
                channel.write(buffer, 0);
                channel.force(false);
            }
            return outcome.result();
        } catch (IOException e) {
            throw new UncheckedIOException("fenced register " + file, e);
        }
    }

    private static State decode(FileChannel channel) throws IOException {
        if (channel.size() < 40) {
            return new State(0, 0, 0, 0, 0);
        }
        ByteBuffer buffer = ByteBuffer.allocate(40);
        channel.read(buffer, 0);
        buffer.flip();
        return new State(buffer.getLong(), buffer.getLong(), buffer.getLong(), buffer.getLong(), buffer.getLong());
    }
}
