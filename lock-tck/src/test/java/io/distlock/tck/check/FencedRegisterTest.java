package io.distlock.tck.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fenced register refuses lower tokens and counts lost updates. */
class FencedRegisterTest {

    private final Path dir = TempDirs.create("register-test");
    private final FencedRegister register = new FencedRegister(dir.resolve("r"));

    @AfterEach
    void cleanUp() {
        TempDirs.delete(dir);
    }

    @Test
    void refusesTokensLowerThanTheHighestSeen() {
        assertThat(register.read(5).accepted()).isTrue();
        assertThat(register.read(4).accepted()).isFalse();
        assertThat(register.write(4, 0, 1).accepted()).isFalse();
        assertThat(register.write(5, 0, 1).accepted()).isTrue();
        FencedRegister.State state = register.state();
        assertThat(state.value()).isEqualTo(1);
        assertThat(state.refused()).isEqualTo(1);
        assertThat(state.highestToken()).isEqualTo(5);
    }

    @Test
    void countsAWriteThatOverwroteAnUnseenUpdate() {
        FencedRegister.Read a = register.read(1);
        FencedRegister.Read b = register.read(2);
        assertThat(register.write(2, b.value(), b.value() + 1).lostUpdate()).isFalse();
        assertThat(register.write(3, a.value(), a.value() + 1).lostUpdate()).as("read 0, but 1 was written").isTrue();
        assertThat(register.state().lostUpdates()).isEqualTo(1);
    }
}
