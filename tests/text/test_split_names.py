"""A name's initials, a saint, a rank, a number's word or a month's abbreviation do not end a sentence: a
sentence cut there loses the name it answers with ("The T. T. Tsui Gallery of Chinese art" came out as "Tsui
Gallery of Chinese art", "St. Joseph, Missouri" as "Joseph, Missouri")."""

from memory_bank.text.split import split_sentences


def test_a_run_of_initials_is_one_name() -> None:
    assert split_sentences("The T. T. Tsui Gallery of Chinese art opened in 1991. It shows art.") == [
        "The T. T. Tsui Gallery of Chinese art opened in 1991.", "It shows art."]
    assert split_sentences("It was written by J. R. R. Tolkien in 1937. He taught.") == [
        "It was written by J. R. R. Tolkien in 1937.", "He taught."]


def test_abbreviations_before_a_name_or_a_number_are_no_break() -> None:
    assert split_sentences("It lies in St. Joseph, Missouri. Next.") == ["It lies in St. Joseph, Missouri.", "Next."]
    assert split_sentences("Symphony No. 9 was played on Dec. 25, 2010. It snowed.") == [
        "Symphony No. 9 was played on Dec. 25, 2010.", "It snowed."]
    assert split_sentences("Gen. Patton landed. Rev. Paul T. Stallsworth spoke.") == [
        "Gen. Patton landed.", "Rev. Paul T. Stallsworth spoke."]


def test_dotted_initials_before_a_name_are_no_break() -> None:
    assert split_sentences("It was bought by E.W. Scripps in 1950. He joined the U.S. Army.") == [
        "It was bought by E.W. Scripps in 1950.", "He joined the U.S. Army."]


def test_sentences_still_end_where_they_end() -> None:
    assert split_sentences("He fought in World War I. Then he left.") == ["He fought in World War I.", "Then he left."]
    assert split_sentences("Richard F. Gordon flew. Next came Apollo 12.") == [
        "Richard F. Gordon flew.", "Next came Apollo 12."]
    assert split_sentences("He moved to the U.S. The next year he left.") == [
        "He moved to the U.S.", "The next year he left."]
