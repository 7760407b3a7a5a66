package io.mykit.delay.test.console;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium with a profile of its own: Debian's chromium and chromium-driver when installed, otherwise the
 * Chrome Selenium Manager finds (no skipping: without either the test fails). {@value #REBOUND} resolves to 127.0.0.1
 * in it, as a name its owner rebinds to the gateway's address would.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
    /** A name only this browser resolves, to loopback: no lookup leaves the machine. */
    static final String REBOUND = "evil.example";

    private final Path profile;
    private final WebDriver driver;

    /** {@code extraArguments}: more command-line switches, such as a window size. */
    HeadlessChromium(String... extraArguments) throws IOException {
        boolean debianChromium = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        profile = Files.createTempDirectory("foreign-page-chromium");
        ChromeOptions options = new ChromeOptions();
        if (debianChromium) {
            options.setBinary(CHROMIUM.toFile());
        }
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--host-resolver-rules=MAP " + REBOUND + " 127.0.0.1",
                "--user-data-dir=" + profile);
        options.addArguments(extraArguments);
        driver = debianChromium
                ? new ChromeDriver(
                        new ChromeDriverService.Builder()
                                .usingDriverExecutable(CHROMEDRIVER.toFile())
                                .usingAnyFreePort()
                                .build(),
                        options)
                : new ChromeDriver(options);
    }

    WebDriver driver() {
        return driver;
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }
}
