package io.mykit.delay.test.ha;

/** Measured figures of the HA tests, one line each, to be found in the test output by their prefix. */
final class HaFigures {

    static final String PREFIX = "HA-FIGURE";

    private HaFigures() {}

    static void print(String test, String name, Object value) {
        System.out.println(PREFIX + " " + test + " " + name + " " + value);
    }
}
