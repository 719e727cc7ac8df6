"""Entity-swap near misses: every word of the question is said, but the sentence pairs the question's name with
another one ("WXYZ-TV in Detroit" where the question asks about "WXYZ-TV in Chicago")."""

from __future__ import annotations

from pathlib import Path

from memory_bank import MemoryBank, Settings
from memory_bank.engines.offline.slots import other_agent, renumbered, swapped_names
from memory_bank.engines.protocol.not_found import is_not_found
from memory_bank.retrieval.embedding import HashingEmbedder

STATIONS = ("ABC's other owned-and-operated stations launched over the course of the next 13 months: WENR-TV in "
            "Chicago signed on the air on September 17, while WXYZ-TV in Detroit went on the air on October 9, 1948.")
LAKES = ("Kenya's terrain extends roughly from Lake Victoria to Lake Turkana (formerly called Lake Rudolf) and "
         "further south-east to the Indian Ocean.")


def test_a_name_whose_slot_the_sentence_fills_with_another_name_is_swapped() -> None:
    assert swapped_names("On what date did WXYZ-TV in Chicago sign on the air?", STATIONS, STATIONS,
                         "American Broadcasting Company") == ["Chicago"]
    assert swapped_names("On what date did WXYZ-TV in Detroit sign on the air?", STATIONS, STATIONS,
                         "American Broadcasting Company") == []
    assert swapped_names("What was Lake Victoria formerly called?", LAKES, LAKES, "Geography") == ["Victoria"]
    assert swapped_names("What was Lake Turkana formerly called?", LAKES, LAKES, "Geography") == []
    defeat = ("The American Football Conference champion Denver Broncos defeated the National Football Conference "
              "champion Carolina Panthers 24–10 to earn their third Super Bowl title.")
    assert swapped_names("Which team did the Carolina Panthers defeat to earn their third Super Bowl title?",
                         defeat, defeat, "Super Bowl 50") == ["Panthers"]
    assert swapped_names("Which team did the Denver Broncos defeat to earn their third Super Bowl title?",
                         defeat, defeat, "Super Bowl 50") == []


def test_an_apposition_a_spelling_a_clause_break_and_the_topic_are_no_swap() -> None:
    ferry = "The DFDS ferry service to Gothenburg, Sweden, ceased at the end of October 2006."
    assert swapped_names("When did the DFDS ferry service to Sweden cease operation?", ferry, ferry, "Newcastle") == []
    khans = "In the early 13th century, the Khwarazmian dynasty was governed by Shah Ala ad-Din Muhammad."
    assert swapped_names("Who was the leader of the Khwarezmian dynasty?", khans, khans, "Genghis Khan") == []
    woven = "A highlight is the Devonshire Hunting Tapestries, woven in the Netherlands, depicting the hunt."
    assert swapped_names("What do the Devonshire Hunting Tapestries depict?", woven, woven, "V&A") == []
    africa = "The Big Five game animals of Africa can be found in Kenya and in the Masai Mara."
    assert swapped_names("What are the biggest game animals of Kenya called?", africa, africa, "Kenya") == []
    # the question's pairing said with words between, or turned into an "of"
    stake = "Disney also sold its 33% stake in European sports channel Eurosport for $155 million in June 2000."
    assert swapped_names("How much did Disney sell its stake in Eurosport for?", stake, stake, "ABC") == []
    bible = ("Luther had published his German translation of the New Testament in 1522, and completed the "
             "translation of the Old Testament in 1534.")
    assert swapped_names("When was the Old Testament translation finished?", bible, bible, "Martin Luther") == []
    rules = "In 1993, the FCC repealed the Financial Interest and Syndication Rules."
    assert swapped_names("When were the Financial Interest and Syndication Rules repealed?", rules, rules,
                         "ABC") == []
    nominated = "In 2011, Matt Smith was the first Doctor to be nominated for a BAFTA Television Award for Best Actor."
    assert swapped_names("In what year was a Doctor first nominated for a Best Actor award?", nominated, nominated,
                         "Doctor Who") == []
    # the question's own pairing said in a neighbouring sentence: the passage answers it there
    assert swapped_names("On what date did WXYZ-TV in Chicago sign on the air?", STATIONS,
                         STATIONS + " WXYZ-TV in Chicago followed in 1949.", "American Broadcasting Company") == []


def test_a_numbered_name_read_against_a_sentence_on_its_sibling_is_renumbered() -> None:
    flight = ("The first, AS-201 launched on February 26, reached an altitude of 265.7 nautical miles and splashed "
              "down 4,577 nautical miles downrange in the Atlantic ocean.")
    assert renumbered("How far downrange did AS-202 splash down in the Atlantic ocean?", flight) == ["AS-202"]
    assert renumbered("How far downrange did AS-201 splash down in the Atlantic ocean?", flight) == []
    assert renumbered("What did Kenya name itself on December 12, 1964?",
                      "Exactly 12 months later on 12 December 1964, Kenya became a republic.") == []
    assert renumbered("What exploded on Apollo 13?", "Apollo 12 was struck by lightning; Apollo 13 lost a tank.") == []


def test_a_swapped_name_is_not_found_through_the_product_and_its_twin_is_answered(tmp_path: Path) -> None:
    bank = MemoryBank(Settings(engine="offline"), embedder=HashingEmbedder(), workdir=tmp_path)
    bank.ingest_text(f"Stations\n\n{STATIONS}\n", "abc.txt")
    detroit = bank.run("On what date did WXYZ-TV in Detroit sign on the air?").answer
    assert not is_not_found(detroit) and "October 9, 1948" in detroit, detroit
    chicago = bank.run("On what date did WXYZ-TV in Chicago sign on the air?").answer
    assert is_not_found(chicago) and "WXYZ-TV in Detroit" in chicago, chicago  # the closest passage, labelled


def test_a_name_in_another_script_is_a_name() -> None:
    """"Ögedei" was read as the lower-case "gedei" and so had no slot."""
    army = "In 1236 the army of Jochi attacked the cities of the Volga."
    assert swapped_names("Which cities did the army of Ögedei attack?", army, army, "Genghis Khan") == ["Ögedei"]
    assert swapped_names("Which cities did the army of Jochi attack?", army, army, "Genghis Khan") == []
    # a file's name is its words: "Apple" of "APPLE_2022_10K.pdf" is the topic, not a name the Company swaps
    repurchased = "During 2022, the Company repurchased 569 million shares of its common stock."
    assert swapped_names("How many shares did Apple repurchase during 2022?", repurchased, repurchased,
                         "APPLE_2022_10K.pdf Note 8") == []


ORIGIN = ("This origin of chloroplasts was first suggested by the Russian biologist Konstantin Mereschkowski in 1905 "
          "after Andreas Schimper observed in 1883 that chloroplasts closely resemble cyanobacteria.")
HALFTIME = ("The Super Bowl 50 halftime show was headlined by the British rock group Coldplay with special guest "
            "performers Beyoncé and Bruno Mars, who headlined the Super Bowl XLVII and Super Bowl XLVIII halftime "
            "shows, respectively.")


def test_an_act_the_sentence_says_was_done_by_another_agent_is_a_swap() -> None:
    assert other_agent("When did Schimper first suggest the endosymbiotic origin of chloroplasts?", ORIGIN) == [
        "Schimper"]
    assert other_agent("Which halftime show did Katy Perry headline?", HALFTIME) == ["Katy Perry"]


def test_the_asked_agent_among_the_agents_or_an_act_not_said_passively_is_met() -> None:
    assert other_agent("When did Konstantin Mereschkowski suggest the origin of chloroplasts?", ORIGIN) == []
    assert other_agent("At which Super Bowl did Beyonce headline the halftime show?", HALFTIME) == []  # accents aside
    assert other_agent("What did Andreas Schimper observe in 1883?", ORIGIN) == []  # "observed" is his own act
