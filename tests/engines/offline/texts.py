"""Small real texts (Wikipedia, CC BY-SA) used by the offline engine tests."""

LIGHTHOUSE = (
    "Egg Rock Light is a lighthouse on Egg Rock, an island in Frenchman Bay, Maine. Built in 1875, it is one of "
    "coastal Maine's architecturally unique lighthouses, with a square tower projecting through the square "
    "keeper's house. It was added to the National Register of Historic Places as Egg Rock Lighthouse in 1988. "
    "The light is visible from the Park Loop Road in Acadia National Park."
)
LIGHTHOUSE_EDITED = LIGHTHOUSE.replace("Built in 1875", "Built in 1920")

SUPER_BOWL = (
    "Super Bowl 50 was an American football game to determine the champion of the National Football League "
    "(NFL) for the 2015 season. The American Football Conference (AFC) champion Denver Broncos defeated the "
    "National Football Conference (NFC) champion Carolina Panthers 24–10 to earn their third Super Bowl title. "
    "The game was played on February 7, 2016, at Levi's Stadium in the San Francisco Bay Area at Santa Clara, "
    "California."
)
# The same paragraph as scraped by another site: spacing and punctuation differ, the words do not.
SUPER_BOWL_RESCRAPED = (
    "Super Bowl 50 was an American football game to determine the champion of the National Football League "
    "( NFL ) for the 2015 season . The American Football Conference ( AFC ) champion Denver Broncos defeated the "
    "National Football Conference ( NFC ) champion Carolina Panthers 24–10 to earn their third Super Bowl title . "
    "The game was played on February 7 , 2016 , at Levi 's Stadium in the San Francisco Bay Area at Santa Clara , "
    "California ."
)

PHOTOSYNTHESIS = (
    "Photosynthesis is a process used by plants and other organisms to convert light energy into chemical energy "
    "that can later be released to fuel the organisms' activities. This chemical energy is stored in "
    "carbohydrate molecules, such as sugars, which are synthesized from carbon dioxide and water. Most plants, "
    "most algae, and cyanobacteria perform photosynthesis; such organisms are called photoautotrophs."
)

# Two different films of the same name: many slots differ at once, which is not a contradiction.
FILM_1951 = (
    "Cry, the Beloved Country is a 1951 British drama film directed by Zoltan Korda and starring Canada Lee, "
    "Charles Carson and Sidney Poitier. It is based on the novel of the same name by Alan Paton."
)
FILM_1995 = (
    "Cry, the Beloved Country is a 1995 South African drama film directed by Darrell Roodt and based on the "
    "novel of the same name by Alan Paton. It stars James Earl Jones and Richard Harris."
)
