package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The URI toolkit every store reads its URI with: authority, durations, numbers, known options. */
class StoreUriToolkitTest {

    @Test
    void authorityHasUserPasswordHostsAndPath() {
        StoreUri uri = StoreUri.parse("redis-cluster://al%40ice:p@ss/w?rd#1@h1:7000,[::1]:7001,h3/0?timeout=2s");
        StoreUri.Authority a = uri.authority();
        assertThat(a.user()).isEqualTo("al@ice");
        assertThat(a.password()).isEqualTo("p@ss/w?rd#1");
        assertThat(a.hosts()).containsExactly(new StoreUri.Host("h1", 7000), new StoreUri.Host("::1", 7001),
                new StoreUri.Host("h3", -1));
        assertThat(a.hosts().get(2).portOr(6379)).isEqualTo(6379);
        assertThat(a.path()).isEqualTo("0");
        assertThat(uri.params()).containsOnlyKeys("timeout");
        assertThat(a.toString()).doesNotContain("rd#1");
    }

    @Test
    void percentEscapesAndPlusInUserInfo() {
        StoreUri.Authority a = StoreUri.parse("zk://u:a%2Bb+c%25@h").authority();
        assertThat(a.password()).isEqualTo("a+b+c%");
        assertThat(StoreUri.parse("zk://u:50%off@h").authority().password()).isEqualTo("50%off");
    }

    @Test
    void authorityWithoutUserInfo() {
        StoreUri.Authority a = StoreUri.parse("zookeeper://h1:2181/locks/app").authority();
        assertThat(a.user()).isNull();
        assertThat(a.password()).isNull();
        assertThat(a.hosts()).containsExactly(new StoreUri.Host("h1", 2181));
        assertThat(a.path()).isEqualTo("locks/app");
    }

    @Test
    void authorityProblemsAreNamed() {
        assertThatThrownBy(() -> StoreUri.parse("redis:localhost").authority())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("//");
        assertThatThrownBy(() -> StoreUri.parse("redis://h:99999").authority())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port");
        assertThatThrownBy(() -> StoreUri.parse("redis://h1,,h2").authority())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty host");
        assertThatThrownBy(() -> StoreUri.parse("redis://[::1:6379").authority())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("IPv6");
        assertThatThrownBy(() -> StoreUri.parse("redis:///0").authority())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no host");
    }

    @ParameterizedTest
    @CsvSource({"500ms,500", "2s,2000", "1m,60000", "1h,3600000", "PT2S,2000", "pt0.5s,500", "250,250",
        "' 3S ',3000", "10 ms,10"})
    void oneDurationSyntax(String text, long millis) {
        assertThat(StoreUri.parseDuration(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "2x", "1.5", "s", "PT", "99999999999999999999h"})
    void badDurationsAreRefused(String text) {
        assertThatThrownBy(() -> StoreUri.parseDuration(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("500ms");
    }

    @Test
    void durationIntegerAndBooleanOptions() {
        StoreUri uri = StoreUri.parse("redis://h?timeout=2s&poolSize=4&restartGuard=true&x=0");
        assertThat(uri.durationOption("timeout", Duration.ofSeconds(9), Duration.ofMillis(1), Duration.ofHours(1)))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(uri.durationOption("other", Duration.ofSeconds(9), Duration.ofMillis(1), Duration.ofHours(1)))
                .isEqualTo(Duration.ofSeconds(9));
        assertThat(uri.intOption("poolSize", 16, 1, 100)).isEqualTo(4);
        assertThat(uri.booleanOption("restartGuard", false)).isTrue();
        assertThatThrownBy(() -> uri.intOption("x", 1, 1, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("x").hasMessageContaining("between 1 and 10");
        assertThatThrownBy(() -> uri.durationOption("timeout", Duration.ZERO, Duration.ofSeconds(5),
                Duration.ofHours(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout").hasMessageContaining("at least");
        assertThatThrownBy(() -> StoreUri.parse("redis://h?poolSize=many").intOption("poolSize", 1, 1, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole number");
        assertThatThrownBy(() -> StoreUri.parse("redis://h?g=maybe").booleanOption("g", false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("true or false");
    }

    @Test
    void unknownOptionsAreRefusedWithTheKnownOnes() {
        StoreUri uri = StoreUri.parse("redis://:pw@h?timeout=2s&tiemout=3s");
        assertThatThrownBy(() -> uri.requireKnownOptions(List.of("timeout", "poolSize")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'tiemout'").hasMessageContaining("[poolSize, timeout]")
                .hasMessageNotContaining("pw");
        uri.requireKnownOptions(List.of("timeout", "tiemout"));
    }
}
