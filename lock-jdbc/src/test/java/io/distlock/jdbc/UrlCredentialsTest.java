package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Credentials inside JDBC URLs are moved out of the URL the pool logs. */
class UrlCredentialsTest {

    @Test
    void userInfoIsTakenOutOfTheUrl() {
        UrlCredentials c = UrlCredentials.split("jdbc:mysql://app:s%40cret@db:3306/app?useSSL=false");
        assertThat(c.url()).isEqualTo("jdbc:mysql://db:3306/app?useSSL=false");
        assertThat(c.user()).isEqualTo("app");
        assertThat(c.password()).isEqualTo("s@cret");
        assertThat(c.toString()).doesNotContain("s@cret");
    }

    @Test
    void h2UserAndPasswordSettingsAreTakenOut() {
        UrlCredentials c = UrlCredentials.split("jdbc:h2:tcp://db:9092/mem:x;user=sa;DB_CLOSE_DELAY=-1;PASSWORD=pw1");
        assertThat(c.url()).isEqualTo("jdbc:h2:tcp://db:9092/mem:x;DB_CLOSE_DELAY=-1");
        assertThat(c.user()).isEqualTo("sa");
        assertThat(c.password()).isEqualTo("pw1");
    }

    @Test
    void urlsWithoutEmbeddedCredentialsAreLeftAlone() {
        String url = "jdbc:postgresql://db/app?user=app&ApplicationName=x";
        UrlCredentials c = UrlCredentials.split(url);
        assertThat(c.url()).isEqualTo(url);
        assertThat(c.user()).isNull();
        assertThat(c.password()).isNull();
        assertThat(c.secretParameters()).isEmpty();
    }

    @Test
    void secretParametersAndRawDelimitersInPasswordsAreTakenOut() {
        UrlCredentials c = UrlCredentials.split("jdbc:postgresql://app:p@s/s?w#rd@db:5432/app?user=x"
                + "&password=a%26b&sslpassword=k#ey&ApplicationName=y");
        assertThat(c.url()).isEqualTo("jdbc:postgresql://db:5432/app?user=x&ApplicationName=y");
        assertThat(c.user()).isEqualTo("app");
        assertThat(c.password()).isEqualTo("p@s/s?w#rd");
        assertThat(c.secretParameters()).containsEntry("password", "a&b").containsEntry("sslpassword", "k#ey");
        assertThat(c.toString()).doesNotContain("w#rd").doesNotContain("k#ey").doesNotContain("a&b");
    }
}
