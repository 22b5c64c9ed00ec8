package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Keeps the SPI narrow: {@link LockBackend} declares at most nine methods (abstract and default); an optional ability
 * is a capability interface of its own, as {@link HandOvers} is, so that a store writes only what it offers.
 */
class LockBackendSizeTest {

    static final int MOST_METHODS = 9;

    @Test
    void lockBackendDeclaresAtMostNineMethods() {
        String[] declared = Arrays.stream(LockBackend.class.getDeclaredMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers()) && !m.isSynthetic())
                .map(Method::getName).sorted().toArray(String[]::new);
        assertThat(declared).as("the methods LockBackend declares").hasSizeLessThanOrEqualTo(MOST_METHODS);
    }

    @Test
    void handOversAreACapabilityOfTheirOwn() {
        assertThat(Arrays.stream(LockBackend.class.getDeclaredMethods()).map(Method::getName))
                .doesNotContain("handOver", "releaseForOthers", "acquireAfterCourtesy");
        assertThat(LockBackend.class).isAssignableFrom(HandOvers.class);
    }
}
