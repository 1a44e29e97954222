import './user.policy';
import './user.type';
import './user.queries';
import './user.mutations';
import './user-realms';
