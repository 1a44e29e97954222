import './page.policy';
import './page.type';
import './page.queries';
import './page.mutations';
