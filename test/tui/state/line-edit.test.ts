// Line editing over whole characters: readline's word motion and deletion at the cursor.
import { describe, expect, it } from 'vitest';
import { characters } from '../../../src/tui/state/field-window.js';
import { applyLineEdit, fitting, wordLeft, wordRight } from '../../../src/tui/state/line-edit.js';

describe('word motion', () => {
  const chars = characters('one  two📚 three');
  it('Alt-B goes to the start of the word, or of the one before from a word’s start', () => {
    expect(wordLeft(chars, chars.length)).toBe(10);
    expect(wordLeft(chars, 10)).toBe(5);
    expect(wordLeft(chars, 7)).toBe(5);
    expect(wordLeft(chars, 5)).toBe(0);
    expect(wordLeft(chars, 0)).toBe(0);
  });
  it('Alt-F goes to the end of the word, or of the next one from between words', () => {
    expect(wordRight(chars, 0)).toBe(3);
    expect(wordRight(chars, 3)).toBe(9);
    expect(wordRight(chars, 9)).toBe(15);
    expect(wordRight(chars, 15)).toBe(15);
  });
});

describe('applyLineEdit', () => {
  it('deletes whole characters at the cursor and keeps the cursor where it was', () => {
    expect(applyLineEdit('a📚b', 1, 'delete-forward')).toEqual({ value: 'ab', cursor: 1 });
    expect(applyLineEdit('ab', 2, 'delete-forward')).toEqual({ value: 'ab', cursor: 2 });
    expect(applyLineEdit('e\u0301tat', 0, 'delete-forward')).toEqual({ value: 'tat', cursor: 0 });
  });
  it('kills to the end, and moves to either end', () => {
    expect(applyLineEdit('hello world', 5, 'kill-end')).toEqual({ value: 'hello', cursor: 5 });
    expect(applyLineEdit('陳美玲', 1, 'start')).toEqual({ value: '陳美玲', cursor: 0 });
    expect(applyLineEdit('陳美玲', 1, 'end')).toEqual({ value: '陳美玲', cursor: 3 });
  });
  it('Ctrl-U deletes what is before the cursor and Ctrl-W the word before it, as readline does, not at the end', () => {
    expect(applyLineEdit('hello world', 6, 'kill-start')).toEqual({ value: 'world', cursor: 0 });
    expect(applyLineEdit('hello world', 11, 'kill-start')).toEqual({ value: '', cursor: 0 });
    expect(applyLineEdit('hello big world', 10, 'delete-word-back')).toEqual({ value: 'hello world', cursor: 6 });
    expect(applyLineEdit('hello   world', 8, 'delete-word-back')).toEqual({ value: 'world', cursor: 0 });
    expect(applyLineEdit('陳美玲 📚x', 6, 'delete-word-back')).toEqual({ value: '陳美玲 ', cursor: 4 });
    expect(applyLineEdit('ab', 0, 'delete-word-back')).toEqual({ value: 'ab', cursor: 0 });
  });
  it('keeps the cursor within the value', () => {
    expect(applyLineEdit('ab', 0, 'left')).toEqual({ value: 'ab', cursor: 0 });
    expect(applyLineEdit('ab', 2, 'right')).toEqual({ value: 'ab', cursor: 2 });
    expect(applyLineEdit('ab', 9, 'left')).toEqual({ value: 'ab', cursor: 1 });
  });
});

describe('fitting', () => {
  it('keeps the whole characters that fit, in order', () => {
    expect(fitting(characters('Lee Ann'), 3)).toEqual(['L', 'e', 'e']);
    expect(fitting(characters('a👨\u200d👩\u200d👧b'), 5)).toEqual(['a']);
    expect(fitting(characters('ab'), 0)).toEqual([]);
    expect(fitting(characters('ab'), -3)).toEqual([]);
  });
});
