// A small spinner for waits; it animates only while shown.
import { Text } from 'ink';
import { useEffect, useState } from 'react';
import { useGlyphs } from '../style/glyphs.js';

export function Spinner({ color }: { color?: string | undefined }) {
  const frames = useGlyphs().spinner;
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => f + 1), 100);
    return () => clearInterval(timer);
  }, []);
  return <Text {...(color && { color })}>{frames[frame % frames.length]}</Text>;
}
