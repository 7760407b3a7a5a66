package io.mykit.delay.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The streaming UTF-8 check agrees with the JDK's strict decoder, whatever pieces the bytes arrive in. */
class Utf8CheckTest {

    @Test
    void agrees_with_the_strict_decoder_on_random_bytes_split_anywhere() {
        Random random = new Random(41);
        int[] interesting = {0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
        for (int round = 0; round < 200_000; round++) {
            byte[] bytes = new byte[1 + random.nextInt(6)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte)
                        (random.nextBoolean() ? interesting[random.nextInt(interesting.length)] : random.nextInt(256));
            }
            int split = random.nextInt(bytes.length + 1);
            Utf8Check check = new Utf8Check();
            boolean valid = check.accept(bytes, 0, split)
                    && check.accept(bytes, split, bytes.length - split)
                    && check.complete();
            assertThat(valid).as(java.util.HexFormat.of().formatHex(bytes)).isEqualTo(strict(bytes));
        }
    }

    @Test
    void text_in_every_plane_is_valid() {
        byte[] text = "a é € 中 😀 \u0000 \uFFFD".getBytes(StandardCharsets.UTF_8);
        Utf8Check check = new Utf8Check();
        assertThat(check.accept(text, 0, text.length) && check.complete()).isTrue();
    }

    private static boolean strict(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
